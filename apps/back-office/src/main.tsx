import { render } from 'preact';
import { LocationProvider, Route, Router, useLocation } from 'preact-iso/router';
import { session } from './session.js';
import { signOut } from './sign-in.js';
import { CapabilityPage } from './pages/capability.js';
import { NotFound } from './pages/not-found.js';
import { Settings } from './pages/settings.js';
import { Start } from './pages/start.js';

/** The back office's own paths, routed in the page; a link elsewhere (the counter, the docs) loads its page. */
const BACK_OFFICE = /^\/(?:$|settings$|o\/)/;

/** The merchant's back office: the start page (onboarding, sign-in, the dashboard), settings, and a page per capability. */
function App() {
  return (
    <LocationProvider scope={BACK_OFFICE}>
      <Header />
      <main id="main">
        <Router>
          <Route path="/" component={Start} />
          <Route path="/settings" component={Settings} />
          <Route path="/o/:handle/:page" component={CapabilityPage} />
          <Route default component={NotFound} />
        </Router>
      </main>
    </LocationProvider>
  );
}

function Header() {
  const { route } = useLocation();
  return (
    <header class="bar">
      <a class="brand" href="/">
        Commerce Toolkit
      </a>
      {session.signedIn() && (
        <nav aria-label="Back office">
          <a href="/">Dashboard</a>
          <a href="/settings">Settings</a>
          <a href="/pos">Counter</a>
          <button type="button" class="link" onClick={() => signOut().then(() => route('/'))}>
            Sign out
          </button>
        </nav>
      )}
    </header>
  );
}

render(<App />, document.getElementById('app')!);
