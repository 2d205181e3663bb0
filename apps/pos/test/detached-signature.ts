import { createHash } from 'node:crypto';
import forge from 'node-forge';

const OID = {
  data: '1.2.840.113549.1.7.1',
  messageDigest: '1.2.840.113549.1.9.4',
  signingTime: '1.2.840.113549.1.9.5',
  sha1: '1.3.14.3.2.26',
  sha256: '2.16.840.1.101.3.4.2.1',
};

/**
 * Verifies a detached PKCS#7 (CMS SignedData) signature of `content` with node-forge, which makes such
 * signatures but does not check them: the SignedData carries no content, its one signer's
 * messageDigest attribute is the content's digest, and the signer's certificate (found among those it
 * carries by its serial) verifies the RSA signature over the DER of the signed attributes. Throws otherwise.
 */
export function verifyDetachedSignature(signature: Buffer, content: Buffer) {
  const asn1 = forge.asn1.fromDer(forge.util.createBuffer(signature.toString('binary')));
  const message = forge.pkcs7.messageFromAsn1(asn1) as forge.pkcs7.PkcsSignedData;
  const signedData = nodes(nodes(asn1)[1]!)[0]!;
  const fields = nodes(signedData);
  const encapsulated = nodes(fields[2]!);
  if (forge.asn1.derToOid(encapsulated[0]!.value as string) !== OID.data) throw new Error('the signed content is not data');
  if (encapsulated.length !== 1) throw new Error('the signature is not detached: it carries its content');

  const signerInfos = nodes(fields.at(-1)!);
  if (signerInfos.length !== 1) throw new Error(`expected one signer, found ${signerInfos.length}`);
  const [, issuerAndSerial, digestAlgorithm, attributes, , encryptedDigest] = nodes(signerInfos[0]!);
  const serial = forge.util.createBuffer(nodes(issuerAndSerial!)[1]!.value as string).toHex();
  const signer = message.certificates.find((certificate) => certificate.serialNumber === serial);
  if (!signer) throw new Error('the signer certificate is not in the signature');

  const digestOid = forge.asn1.derToOid(nodes(digestAlgorithm!)[0]!.value as string);
  const hash = digestOid === OID.sha1 ? 'sha1' : digestOid === OID.sha256 ? 'sha256' : undefined;
  if (!hash) throw new Error(`unexpected digest algorithm ${digestOid}`);
  const attribute = (oid: string) => {
    const found = nodes(attributes!).find((node) => forge.asn1.derToOid(nodes(node)[0]!.value as string) === oid);
    return found && nodes(nodes(found)[1]!)[0]!;
  };
  const messageDigest = Buffer.from(attribute(OID.messageDigest)!.value as string, 'binary');
  if (!messageDigest.equals(createHash(hash).update(content).digest())) throw new Error('messageDigest is not the digest of the content');

  // The signature is over the attributes' DER as a SET (their [0] IMPLICIT tag replaced).
  const signedAttributes = forge.asn1.create(forge.asn1.Class.UNIVERSAL, forge.asn1.Type.SET, true, nodes(attributes!));
  const md = forge.md[hash].create();
  md.update(forge.asn1.toDer(signedAttributes).getBytes());
  if (!(signer.publicKey as forge.pki.rsa.PublicKey).verify(md.digest().bytes(), encryptedDigest!.value as string)) {
    throw new Error('the RSA signature does not verify with the signer certificate');
  }
  const signingTime = attribute(OID.signingTime);
  return {
    signer,
    certificates: message.certificates,
    hash,
    signingTime: signingTime ? forge.asn1.utcTimeToDate(signingTime.value as string) : undefined,
  };
}

function nodes(node: forge.asn1.Asn1): forge.asn1.Asn1[] {
  return node.value as forge.asn1.Asn1[];
}
