import { spawn } from 'node:child_process';

export interface KafkaMock {
  /** host:port,host:port,… of the mock cluster's brokers (all on 127.0.0.1). */
  brokers: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * librdkafka's mock Kafka cluster, started through Debian's kcat: a consumer pointed at the mock
 * prints the cluster's bootstrap servers in its debug output and keeps the brokers alive while it
 * runs. Nothing of it reaches beyond loopback. Fails with a clear message where kcat is missing,
 * so a suite that expects Kafka never silently runs without it.
 */
export function startKafkaMock(options: { brokers?: number; timeoutMs?: number } = {}): Promise<KafkaMock> {
  const count = options.brokers ?? 3;
  const child = spawn(
    'kcat',
    ['-b', 'localhost:1', '-X', `test.mock.num.brokers=${count}`, '-C', '-t', 'earshot-mock-keepalive', '-d', 'mock'],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  return new Promise<KafkaMock>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(
      () => fail(new Error(`kcat printed no bootstrap servers within ${options.timeoutMs ?? 10_000} ms`)),
      options.timeoutMs ?? 10_000,
    );
    const fail = (error: Error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(error);
    };
    child.on('error', (error) =>
      fail(new Error(`cannot start kcat for a mock Kafka cluster (apt-get install kcat): ${error.message}`)),
    );
    child.on('exit', (code) =>
      fail(new Error(`kcat exited (${code}) before the mock cluster was up: ${output.slice(-500)}`)),
    );
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (output.length < 64_000) output += chunk;
      const match = /bootstrap\.servers=(\S+)/.exec(output);
      if (!match) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      // Drain the debug output from here on, or kcat blocks on a full pipe.
      child.stderr.removeAllListeners('data');
      child.stderr.resume();
      resolve({
        brokers: match[1]!,
        pid: child.pid!,
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
  });
}
