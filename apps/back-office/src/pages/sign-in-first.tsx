/** A page that needs a signed-in merchant, reached without one. */
export function SignInFirst() {
  return (
    <section class="card">
      <h1>Sign in first</h1>
      <p>
        This page is for a shop&rsquo;s staff. <a href="/">Sign in or open your shop</a>.
      </p>
    </section>
  );
}
