/** One file of an upload (a predictions file, a model file), already read off its transport. */
export interface FilePart {
  filename: string;
  bytes: Uint8Array;
  /**
   * The bytes are this upload's alone and are not read again once checked (a face that read
   * them off its transport): a checking thread takes a predictions file's memory instead of a
   * copy of it. Absent for bytes a caller keeps (an in-process agent's own buffer).
   */
  movable?: boolean;
}
