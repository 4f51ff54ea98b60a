'use client';

import { useEffect, useRef } from 'react';
import { ApiError, requestJson } from '@/components/queries/api';
import { assignmentApi } from '../api';

const MIN_MS = 30_000;
const MAX_MS = 5 * 60_000;

/**
 * Keeps the seed while the workspace is open, typing or not: renews the lease on opening, then halfway to
 * its end (between 30 s and 5 min). A 409 means the lease already ran out: `onLost` is called.
 */
export function useLease(assignmentId: number, active: boolean, onLost: () => void): void {
  const lost = useRef(onLost);
  lost.current = onLost;

  useEffect(() => {
    if (!active) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const renew = async () => {
      try {
        const { leaseExpiresAt } = await requestJson<{ leaseExpiresAt: string }>(`${assignmentApi(assignmentId)}/lease`, { method: 'POST' });
        const half = (new Date(leaseExpiresAt).getTime() - Date.now()) / 2;
        if (!stopped) timer = setTimeout(renew, Math.min(MAX_MS, Math.max(MIN_MS, half)));
      } catch (err) {
        if (stopped) return;
        if (err instanceof ApiError && err.status === 409) lost.current();
        else timer = setTimeout(renew, MIN_MS);
      }
    };
    void renew();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [assignmentId, active]);
}
