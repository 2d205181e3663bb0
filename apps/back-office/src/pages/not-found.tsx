export function NotFound() {
  return (
    <section class="card">
      <h1>Page not found</h1>
      <p>
        There is no page here. <a href="/">Go to the start page</a>.
      </p>
    </section>
  );
}
