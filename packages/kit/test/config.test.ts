import { z } from 'zod';
import { BaseConfigSchema, ConfigError, loadConfig } from '../src';

test('ConfigError lists every bad key, not just the first', () => {
  let error: unknown;
  try {
    loadConfig(BaseConfigSchema, {
      PORT: 'eighty',
      DATABASE_URL: 'mysql://db/earshot',
      JWT_SECRET: 'short',
      LOG_LEVEL: 'loud',
    });
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(ConfigError);
  const problems = (error as ConfigError).problems;
  for (const key of ['PORT', 'DATABASE_URL', 'JWT_SECRET', 'LOG_LEVEL']) {
    expect(problems.some((p) => p.startsWith(`${key}:`))).toBe(true);
  }
  expect(problems).toHaveLength(4);
  expect((error as ConfigError).message).toMatch(/JWT_SECRET: must be at least 32 characters/);
});

test('empty strings count as unset: defaults apply and optional keys stay absent', () => {
  const config = loadConfig(BaseConfigSchema, {
    PORT: '',
    DATABASE_URL: '',
    KAFKA_BROKERS: '',
    JWT_SECRET: '',
    TRUST_PROXY: '',
  });
  expect(config.PORT).toBe(3000);
  expect(config.DATABASE_URL).toBeUndefined();
  expect(config.KAFKA_BROKERS).toBeUndefined();
  expect(config.JWT_SECRET).toBeUndefined();
  expect(config.TRUST_PROXY).toBe(false);
});

test('valid values are parsed to their types', () => {
  const config = loadConfig(BaseConfigSchema, {
    PORT: '8080',
    DATABASE_URL: 'postgres://u@db:5432/earshot',
    KAFKA_BROKERS: 'k1:9092,k2:9092',
    TRUST_PROXY: 'true',
  });
  expect(config).toMatchObject({
    PORT: 8080,
    DATABASE_URL: 'postgres://u@db:5432/earshot',
    KAFKA_BROKERS: 'k1:9092,k2:9092',
    TRUST_PROXY: true,
  });
});

test('a service shape extends the base schema and is validated with it', () => {
  const schema = BaseConfigSchema.extend({ S3_BUCKET: z.string().min(3) });
  expect(() => loadConfig(schema, { S3_BUCKET: 'x', PORT: '-1' })).toThrow(ConfigError);
  expect(loadConfig(schema, { S3_BUCKET: 'audio' }).S3_BUCKET).toBe('audio');
});
