import { generateKeyPair, randomBytes } from 'node:crypto';
import forge from 'node-forge';

/** A certificate authority and a certificate it issued, PEM, with the issued certificate's RSA key. */
export type IssuedCertificate = { caCertificate: string; certificate: string; key: string };

const DAY_MS = 86_400_000;

/**
 * A self-signed development CA (standing in for Apple's WWDR intermediate) and a pass certificate it
 * issued for `passTypeIdentifier` and `teamIdentifier`, as Apple's are named (UID the pass type, OU the
 * team), made in memory. The keys come from node's crypto (fast); node-forge writes the certificates.
 * Wallet on a phone refuses passes they sign: the structure is real, the trust is not.
 */
export async function developmentPassCertificate(passTypeIdentifier: string, teamIdentifier: string): Promise<IssuedCertificate> {
  const [ca, pass] = await Promise.all([newRsaKey(), newRsaKey()]);
  const caSubject = [
    { name: 'commonName', value: 'Commerce Toolkit Development Pass CA' },
    { name: 'organizationName', value: 'Commerce Toolkit (development)' },
  ];
  const caCertificate = certificate({
    subject: caSubject,
    issuer: caSubject,
    publicKey: ca.publicKey,
    signingKey: ca.privateKey,
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    ],
  });
  const passCertificate = certificate({
    subject: [
      { type: '0.9.2342.19200300.100.1.1', value: passTypeIdentifier }, // UID
      { name: 'commonName', value: `Pass Type ID: ${passTypeIdentifier}` },
      { name: 'organizationalUnitName', value: teamIdentifier },
      { name: 'organizationName', value: 'Commerce Toolkit (development)' },
    ],
    issuer: caSubject,
    publicKey: pass.publicKey,
    signingKey: ca.privateKey,
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, critical: true },
    ],
  });
  return {
    caCertificate: forge.pki.certificateToPem(caCertificate),
    certificate: forge.pki.certificateToPem(passCertificate),
    key: forge.pki.privateKeyToPem(pass.privateKey),
  };
}

async function newRsaKey(): Promise<{ privateKey: forge.pki.rsa.PrivateKey; publicKey: forge.pki.rsa.PublicKey }> {
  const pem = await new Promise<string>((resolve, reject) =>
    generateKeyPair(
      'rsa',
      { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs1', format: 'pem' } },
      (error, _publicKey, privateKey) => (error ? reject(error) : resolve(privateKey)),
    ),
  );
  const privateKey = forge.pki.privateKeyFromPem(pem) as forge.pki.rsa.PrivateKey;
  return { privateKey, publicKey: forge.pki.rsa.setPublicKey(privateKey.n, privateKey.e) };
}

function certificate(fields: {
  subject: forge.pki.CertificateField[];
  issuer: forge.pki.CertificateField[];
  publicKey: forge.pki.PublicKey;
  signingKey: forge.pki.rsa.PrivateKey;
  extensions: object[];
}): forge.pki.Certificate {
  const issued = forge.pki.createCertificate();
  issued.publicKey = fields.publicKey;
  // Positive (first bit clear) and random: serials must be unique per issuer.
  issued.serialNumber = `01${randomBytes(15).toString('hex')}`;
  issued.validity.notBefore = new Date(Date.now() - DAY_MS);
  issued.validity.notAfter = new Date(Date.now() + 365 * DAY_MS);
  issued.setSubject(fields.subject);
  issued.setIssuer(fields.issuer);
  issued.setExtensions(fields.extensions);
  issued.sign(fields.signingKey, forge.md.sha256.create());
  return issued;
}
