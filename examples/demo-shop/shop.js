// The demo shop's own script: what a merchant writes to hear from the Buy button. The element dispatches
// `checkout.paid` and `checkout.expired` (bubbling), and calls the function named by its `callback` attribute.

const thanks = document.getElementById('thanks');
const log = document.getElementById('events');

function record(event) {
  const entry = document.createElement('li');
  entry.dataset.type = event.type;
  entry.dataset.detail = JSON.stringify(event.detail);
  entry.textContent = `${event.type}: order ${event.detail.order_number}`;
  log.append(entry);
}

document.addEventListener('checkout.paid', (event) => {
  record(event);
  thanks.textContent = `Thank you! Order ${event.detail.order_number} is paid: show this at the counter.`;
});
document.addEventListener('checkout.expired', (event) => {
  record(event);
  thanks.textContent = 'That checkout expired before it was paid: nothing was charged.';
});

// The callback attribute names a global function; it gets the same event.
window.demoShopCheckout = (event) => {
  window.demoShopCallbacks = [...(window.demoShopCallbacks ?? []), { type: event.type, detail: event.detail }];
};
