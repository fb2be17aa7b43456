/** The suite's step output and its figures: each step's name, how long it took, and what it measured. */
export class Steps {
  readonly timings: { name: string; ms: number }[] = [];
  readonly figures: string[] = [];
  private readonly began = Date.now();

  async run<T>(name: string, work: () => Promise<T>): Promise<T> {
    const start = Date.now();
    process.stdout.write(`▶ ${name}\n`);
    try {
      const result = await work();
      const ms = Date.now() - start;
      this.timings.push({ name, ms });
      process.stdout.write(`  ✔ ${name} (${(ms / 1000).toFixed(1)} s)\n`);
      return result;
    } catch (error) {
      process.stdout.write(`  ✘ ${name} (${((Date.now() - start) / 1000).toFixed(1)} s)\n`);
      throw error;
    }
  }

  note(line: string): void {
    this.figures.push(line);
    process.stdout.write(`    ${line}\n`);
  }

  summary(): string {
    const rows = this.timings.map(({ name, ms }) => `  ${(ms / 1000).toFixed(1).padStart(6)} s  ${name}`);
    return [
      'Time per step:',
      ...rows,
      `  ${((Date.now() - this.began) / 1000).toFixed(1).padStart(6)} s  in all`,
      'Measured:',
      ...this.figures.map((line) => `  ${line}`),
    ].join('\n');
  }
}
