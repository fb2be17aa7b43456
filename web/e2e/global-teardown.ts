import { rm } from 'node:fs/promises';

/** Drops the template database and data folder global-setup.ts made (if it did). */
export default async function teardown(): Promise<void> {
  const template = globalThis.earshotE2eTemplate;
  if (!template) return;
  await template.drop();
  await rm(template.dataDir, { recursive: true, force: true });
}
