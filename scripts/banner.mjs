// What a start prints once it serves: where to begin. scripts/start-all.mjs (one process) and
// scripts/start-distributed.mjs (a process per app) print the same, with how they run in brackets.

/** @param {{ base: string, how: string, chain?: { url: string, shared: boolean }, chainNetwork: string }} options */
export function banner({ base, how, chain, chainNetwork }) {
  return `
Commerce Toolkit is running at ${base} (${how}).
  Back office:   ${base}/ (open your shop, or sign in)
  Docs:          ${base}/docs
  Counter:       ${base}/pos (sign in with the API key; the customer's page is ${base}/pay/<order_number>)
  API map:       ${base}/api/v1/capabilities
  Onboard:       curl -s -X POST ${base}/api/v1/onboard -H 'content-type: application/json' -d '{"name": "My Cafe"}'
  Who am I:      curl -s ${base}/api/v1/me -H "authorization: Bearer <api_key from onboarding>"
${
  chain
    ? `  Local chain:   ${chain.url} (ARC; WhatsOnChain at ${chain.url}/v1/bsv/local)${chain.shared ? ', started by another instance' : ''}
  Faucet:        curl -s -X POST ${chain.url}/faucet -H 'content-type: application/json' -d '{"address": "<P2PKH address>", "satoshis": 500000000}'
  Mine a block:  curl -s -X POST ${chain.url}/mine
`
    : `  Chain:         ${chainNetwork} (ARC and WhatsOnChain)
`
}Stop with Ctrl-C.
`;
}
