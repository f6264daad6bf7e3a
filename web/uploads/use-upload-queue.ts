/**
 * Files sent one after another (spec part 2 §9: one upload at a time), with the
 * figures the page shows per file and overall, Pause and Resume, and a connection that comes back
 * resuming by itself.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { startResumableUpload, UploadFailure } from './resumable-upload';
import type { ResumableUpload } from './resumable-upload';
import { nextThroughput, overallProgress, rebaseThroughput, secondsLeft, startThroughput } from './upload-progress';
import type { Throughput } from './upload-progress';

export type FileState = 'waiting' | 'uploading' | 'done' | 'failed';

export interface QueuedFile {
  file: File;
  sent: number;
  state: FileState;
  /** This file's own throughput, for its time left. */
  throughput: Throughput;
}

export interface UploadQueue {
  files: QueuedFile[];
  /** Sending (or paused while sending). */
  running: boolean;
  paused: boolean;
  /** The connection stayed away through the retries: waiting for it (or for Resume). */
  stalled: boolean;
  overall: { sent: number; total: number; percent: number; secondsLeft: number | null };
  /** Sends the files in order; resolves their upload ids, rejects with the first file's UploadFailure. */
  run: (files: readonly File[]) => Promise<string[]>;
  pause: () => void;
  resume: () => void;
}

const IDLE = startThroughput(0);

/** `failureText`: what a refused file says when the server gave no words (the form's failure text). */
export function useUploadQueue(failureText: string): UploadQueue {
  const [files, setFiles] = useState<QueuedFile[]>([]);
  const [running, setRunning] = useState(false);
  const [paused, setPaused] = useState(false);
  const [stalled, setStalled] = useState(false);
  const [throughput, setThroughput] = useState<Throughput>(IDLE);
  const current = useRef<ResumableUpload | null>(null);

  const patch = (index: number, change: (f: QueuedFile) => QueuedFile) => setFiles((list) => list.map((f, i) => (i === index ? change(f) : f)));

  const resume = useCallback(() => {
    const at = Date.now();
    setPaused(false);
    setStalled(false);
    setThroughput((t) => rebaseThroughput(t, at));
    setFiles((list) => list.map((f) => (f.state === 'uploading' ? { ...f, throughput: rebaseThroughput(f.throughput, at) } : f)));
    current.current?.resume();
  }, []);

  const pause = useCallback(() => {
    setPaused(true);
    current.current?.pause();
  }, []);

  const run = useCallback(async (chosen: readonly File[]) => {
    const at = Date.now();
    setFiles(chosen.map((file) => ({ file, sent: 0, state: 'waiting', throughput: startThroughput(at) })));
    setThroughput(startThroughput(at));
    setPaused(false);
    setStalled(false);
    setRunning(true);
    const ids: string[] = [];
    // Bytes of the files already sent, so the overall throughput reads one growing count.
    let before = 0;
    try {
      for (const [index, file] of chosen.entries()) {
        const startedAt = Date.now();
        patch(index, (f) => ({ ...f, state: 'uploading', throughput: startThroughput(startedAt) }));
        // The next file may resume at an offset: measure the overall speed afresh from its first reading.
        setThroughput((t) => rebaseThroughput(t, startedAt));
        const upload = startResumableUpload(file, {
          progress: (sent) => {
            const now = Date.now();
            patch(index, (f) => ({ ...f, sent, throughput: nextThroughput(f.throughput, sent, now) }));
            setThroughput((t) => nextThroughput(t, before + sent, now));
          },
          stalled: () => setStalled(true),
        }, failureText);
        current.current = upload;
        try {
          ids.push(await upload.done);
        } catch (error) {
          patch(index, (f) => ({ ...f, state: 'failed' }));
          throw error instanceof UploadFailure ? error : new UploadFailure(String(error), 0);
        }
        before += file.size;
        patch(index, (f) => ({ ...f, sent: file.size, state: 'done' }));
      }
      return ids;
    } finally {
      current.current = null;
      setRunning(false);
      setPaused(false);
      setStalled(false);
    }
  }, [failureText]);

  // The connection is back: go on without waiting for a click.
  useEffect(() => {
    if (!stalled || paused) return;
    const online = () => resume();
    window.addEventListener('online', online);
    return () => window.removeEventListener('online', online);
  }, [stalled, paused, resume]);

  // Leaving the page stops sending; the server keeps what arrived and the same file resumes later.
  useEffect(() => () => current.current?.pause(), []);

  const sums = overallProgress(files.map((f) => ({ size: f.file.size, sent: f.sent })));
  return {
    files,
    running,
    paused,
    stalled,
    overall: { ...sums, secondsLeft: secondsLeft(sums.total - sums.sent, throughput) },
    run,
    pause,
    resume,
  };
}
