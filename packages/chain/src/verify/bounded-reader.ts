import { Utils, type BigNumber } from '@bsv/sdk';

/**
 * The SDK's byte reader, bounded and copying. The SDK's own reads past the end without failing (a count
 * of four billion transactions in a ten-byte BEEF makes it build objects until the heap is gone), and its
 * `read` returns a view when the bytes are a Buffer, which the SDK then reverses in place (a txid read
 * from a gRPC message's Buffer came out reversed, and the BEEF broadcast afterwards was not the one
 * verified). Here a read past the end throws, so parsing costs at most the bytes given, and every read
 * is a copy.
 */
export class BoundedReader extends Utils.ReaderUint8Array {
  private need(bytes: number): void {
    if (!Number.isSafeInteger(bytes) || bytes < 0 || this.pos + bytes > this.bin.length)
      throw new Error(`it is cut short: ${bytes} more bytes wanted at ${this.pos} of ${this.bin.length}`);
  }

  override read(len = this.bin.length - this.pos): Uint8Array {
    this.need(len);
    const start = this.pos;
    this.pos += len;
    return Uint8Array.prototype.slice.call(this.bin, start, this.pos);
  }

  override readReverse(len = this.bin.length - this.pos): Uint8Array {
    this.need(len);
    return super.readReverse(len);
  }

  override readUInt8(): number {
    this.need(1);
    return super.readUInt8();
  }

  override readInt8(): number {
    this.need(1);
    return super.readInt8();
  }

  override readUInt16BE(): number {
    this.need(2);
    return super.readUInt16BE();
  }

  override readUInt16LE(): number {
    this.need(2);
    return super.readUInt16LE();
  }

  override readUInt32BE(): number {
    this.need(4);
    return super.readUInt32BE();
  }

  override readUInt32LE(): number {
    this.need(4);
    return super.readUInt32LE();
  }

  override readUInt64BEBn(): BigNumber {
    this.need(8);
    return super.readUInt64BEBn();
  }

  override readVarInt(): Uint8Array {
    this.need(1);
    return super.readVarInt();
  }
}
