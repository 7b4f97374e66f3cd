/** The terminal's columns and rows, following resizes; 80×24 when the output does not say. */
import { useStdout } from "ink";
import { useEffect, useState } from "react";
import type { TerminalSize } from "./season-view.js";

export function useTerminalSize(): TerminalSize {
  const { stdout } = useStdout();
  const [size, setSize] = useState(() => sizeOf(stdout));
  useEffect(() => {
    const onResize = () => setSize(sizeOf(stdout));
    stdout.on("resize", onResize);
    return () => {
      stdout.off("resize", onResize);
    };
  }, [stdout]);
  return size;
}

const sizeOf = (out: NodeJS.WriteStream): TerminalSize => ({ columns: out.columns || 80, rows: out.rows || 24 });
