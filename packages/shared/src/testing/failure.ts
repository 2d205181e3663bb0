/** The AppError code, message and details a gRPC call failed with; throws when it did not fail. */
export async function failure(promise: Promise<unknown>): Promise<{ code: string; message: string; details?: Record<string, unknown> }> {
  try {
    await promise;
  } catch (error) {
    return error as { code: string; message: string; details?: Record<string, unknown> };
  }
  throw new Error('expected the call to fail');
}
