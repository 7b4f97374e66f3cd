export const STAMP: string;
export function buildIsCurrent(root: string): boolean;
