export { startFakeGate, type FakeGate, type FakeGateOptions, type FakeResource, type FakeGrant, type CheckBody } from './fake-gate.js';
export { newSigningKey, signCredential, type SigningKey } from './sign-credential.js';
