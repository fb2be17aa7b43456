import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const sox = (...args: string[]) => execFileSync('sox', ['-V1', ...args]);
const seconds = (path: string) => Number(execFileSync('soxi', ['-D', path]).toString().trim());

/**
 * A stereo call as the transcription tests make one: the agent (a male espeak-ng voice) on the
 * left channel, then the customer (a female voice) on the right after a pause, merged with
 * `sox -M`. `repeat` says each side's lines that many times, for a job that takes a while.
 */
export function stereoCall(repeat = 1): { data: Buffer; duration: number } {
  const dir = mkdtempSync(join(tmpdir(), 'earshot-distributed-call-'));
  try {
    const say = (name: string, voice: string, speed: number, text: string) => {
      const path = join(dir, `${name}.wav`);
      execFileSync('espeak-ng', ['-v', voice, '-s', String(speed), '-w', path, Array(repeat).fill(text).join(' ')]);
      return path;
    };
    const agent = say('agent', 'en-us+m1', 170, 'hello. one two three four five six seven. good morning.');
    const customer = say('customer', 'en-us+f5', 150, 'thank you very much. four five six seven eight nine. good bye.');
    const agentStart = 0.5;
    const customerStart = agentStart + seconds(agent) + 0.7;
    const total = customerStart + seconds(customer) + 0.5;
    const left = join(dir, 'left.wav');
    const right = join(dir, 'right.wav');
    sox(agent, left, 'pad', String(agentStart), String(total - agentStart - seconds(agent)));
    sox(customer, right, 'pad', String(customerStart), String(total - customerStart - seconds(customer)));
    const call = join(dir, 'call.wav');
    sox('-M', left, right, call);
    return { data: readFileSync(call), duration: seconds(call) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
