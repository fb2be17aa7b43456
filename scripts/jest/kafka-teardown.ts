/** Stops the mock Kafka cluster kafka-setup.ts started (if it did). */
export default async function teardown(): Promise<void> {
  await globalThis.earshotKafkaMock?.stop();
}
