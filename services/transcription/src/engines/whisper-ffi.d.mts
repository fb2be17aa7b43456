// Types of whisper-ffi.mjs (plain JavaScript, as the worker thread loads it).
import type koffi from 'koffi';

/** whisper.cpp's defaults as whisper-ffi.mjs's structs decode them (strings as they read). */
export interface WhisperDefaults {
  context: Record<string, unknown>;
  full: Record<string, unknown>;
}

export function expectedDefaults(strategy: number): WhisperDefaults;

/** Whether `bytes` ends with the first bytes of a UTF-8 character whose other bytes are still to come. */
export function endsInsideCharacter(bytes: Uint8Array): boolean;

export interface WhisperToken {
  text: string;
  /** Milliseconds from the start of the samples. */
  t0: number;
  t1: number;
  /** The probability whisper gave the token, 0–1. */
  p: number;
}

export interface WhisperLibrary {
  /** The library's defaults decoded with the declared structs; pointers (strings) as addresses. */
  defaults(strategy: number): WhisperDefaults;
  /** Bytes the library writes for each struct (x86-64 System V only, else null). */
  sizes(): { context: number; full: number } | null;
  /** Every way the library differs from the declared structs; empty when they match. */
  layoutProblems(): string[];
  load(path: string, useGpu: boolean): unknown;
  free(context: unknown): void;
  transcribe(
    context: unknown,
    samples: Float32Array,
    options: { language: string; threads: number; abortFlag: SharedArrayBuffer },
  ): { isAborted: boolean; language?: string; tokens: WhisperToken[] };
}

export function openWhisperLibrary(ffi: typeof koffi, libraryPath: string): WhisperLibrary;
