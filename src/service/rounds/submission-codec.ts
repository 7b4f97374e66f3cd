/** Predictions are stored as little-endian float64 bytes in the round's instrument order. */
export function encodePredictions(values: Float64Array): Buffer {
  return Buffer.from(values.buffer, values.byteOffset, values.byteLength);
}

export function decodePredictions(blob: Buffer): Float64Array {
  const copy = new Uint8Array(blob.byteLength);
  copy.set(blob);
  return new Float64Array(copy.buffer);
}
