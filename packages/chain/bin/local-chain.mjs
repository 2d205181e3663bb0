#!/usr/bin/env node
// The local chain: ARC and WhatsOnChain subsets, mining and a faucet (see packages/chain/README.md).
import '../dist/local/server.js';
