import type { RefObject } from 'preact';

/**
 * A chart's figure: its canvas (a picture, hidden from screen readers) and the same figures as a table for
 * screen readers and for reading exact values. `head` names the columns; each row is its label and its cells.
 */
export function ChartFigure({
  title,
  canvas,
  head,
  rows,
}: {
  title: string;
  canvas: RefObject<HTMLCanvasElement | null>;
  head: string[];
  rows: [label: string, cells: string[]][];
}) {
  return (
    <figure class="chart">
      <figcaption>{title}</figcaption>
      <div class="chart-canvas" aria-hidden="true">
        <canvas ref={canvas} />
      </div>
      <div class="visually-hidden">
        <table>
          <caption>{title}</caption>
          <thead>
            <tr>
              {head.map((name) => (
                <th scope="col" key={name}>
                  {name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map(([label, cells]) => (
              <tr key={label}>
                <th scope="row">{label}</th>
                {cells.map((cell, index) => (
                  <td key={index}>{cell}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
