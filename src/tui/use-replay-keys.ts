/**
 * The live view's keys: `q` (or Ctrl+C) quits, ending the replay after the current step; `space`
 * pauses and resumes it. Read only while `active` and stdin is a terminal (raw mode); otherwise
 * the status is "off" and the keys are not offered.
 */
import { useInput, useStdin } from "ink";
import { useRef, useState } from "react";
import type { ReplayControl } from "./replay-control.js";
import type { ReplayStatus } from "./season-view.js";

export type ReplayKeysTarget = Pick<ReplayControl, "setPaused" | "quit">;

export function useReplayKeys(control: ReplayKeysTarget, active: boolean): ReplayStatus {
  const { isRawModeSupported } = useStdin();
  const [status, setStatus] = useState<"running" | "paused" | "stopping">("running");
  // Ink may call a handler from an earlier render: it reads the status through a ref.
  const latest = useRef(status);
  latest.current = status;
  useInput(
    (input, key) => {
      if (input === "q" || (key.ctrl && input === "c")) {
        setStatus("stopping");
        control.quit();
      } else if (input === " " && latest.current !== "stopping") {
        const paused = latest.current === "running";
        latest.current = paused ? "paused" : "running";
        setStatus(latest.current);
        control.setPaused(paused);
      }
    },
    { isActive: isRawModeSupported && active },
  );
  return isRawModeSupported ? status : "off";
}
