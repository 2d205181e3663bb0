#!/usr/bin/env node
// The developer wallet: keys in a local file, never sent anywhere (see packages/wallet/README.md).
import { runWallet } from '../dist/index.js';

process.exitCode = await runWallet(process.argv.slice(2));
