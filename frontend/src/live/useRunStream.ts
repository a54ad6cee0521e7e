// Follow one run over SSE: replay + live events into the reducer; EventSource reconnects by itself
// (sending Last-Event-ID), and the reducer drops anything already seen.
import { useEffect, useReducer, useState } from "react";
import { getRun, type RunEvent } from "../api/client";
import { EVENT_KINDS, initialLive, reduce, type LiveState, type LiveStatus } from "./reducer";

export type Connection = "connecting" | "open" | "reconnecting" | "closed";

type Action = { type: "event"; event: RunEvent } | { type: "status"; status: LiveStatus; error?: string | null };

function reducer(state: LiveState, action: Action): LiveState {
  if (action.type === "event") return reduce(state, action.event);
  const final = action.error ? { verdict: null, reason: null, limit: null, error: action.error } : state.final;
  return { ...state, status: action.status, final };
}

export function useRunStream(runId: string): { state: LiveState; connection: Connection; error: string | null } {
  const [state, dispatch] = useReducer(reducer, undefined, () => initialLive());
  const [connection, setConnection] = useState<Connection>("connecting");
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let done = false;
    const source = new EventSource(`/api/runs/${encodeURIComponent(runId)}/events`);
    const settle = async () => {
      // the stream is over: ask the API how the run ended (also covers runs that never started)
      try {
        const doc = await getRun(runId);
        if (doc.status !== "running") dispatch({ type: "status", status: doc.status as LiveStatus, error: doc.error });
      } catch (err) {
        setError(err instanceof Error ? err.message : String(err));
      }
    };
    getRun(runId)
      .then((doc) => {
        if (doc.status === "queued") dispatch({ type: "status", status: "queued" });
      })
      .catch((err: unknown) => setError(err instanceof Error ? err.message : String(err)));
    for (const kind of EVENT_KINDS) {
      source.addEventListener(kind, (msg) => {
        const event = JSON.parse((msg as MessageEvent<string>).data) as RunEvent;
        dispatch({ type: "event", event });
        if (kind === "run_finished") {
          done = true;
          source.close();
          setConnection("closed");
        }
      });
    }
    source.addEventListener("stream_end", () => {
      source.close();
      setConnection("closed");
      if (!done) void settle();
      done = true;
    });
    source.onopen = () => setConnection("open");
    source.onerror = () => {
      if (source.readyState === EventSource.CLOSED) {
        setConnection("closed");
        if (!done) void settle();
      } else {
        setConnection("reconnecting");
      }
    };
    return () => source.close();
  }, [runId]);

  return { state, connection, error };
}
