import { createRequire } from 'node:module';
import type { PasswordHashingStrategy } from '@vendure/core';

interface Bcrypt {
  hash(plaintext: string, rounds: number): Promise<string>;
  compare(plaintext: string, hash: string): Promise<boolean>;
}

/**
 * Vendure's bcrypt with another cost: its BcryptPasswordHashingStrategy always takes 12 rounds, which
 * the tests pay for every shop they boot (superadmin, demo customers) and every Admin or Shop API
 * login. A shop in production keeps Vendure's default; the tests ask for 4 (`passwordHashRounds`).
 */
export class BcryptWithRounds implements PasswordHashingStrategy {
  private bcrypt: Bcrypt | null = null;

  constructor(private readonly rounds: number) {}

  hash(plaintext: string): Promise<string> {
    return this.load().hash(plaintext, this.rounds);
  }

  check(plaintext: string, hash: string): Promise<boolean> {
    return this.load().compare(plaintext, hash);
  }

  /** bcrypt as Vendure loads it: its own dependency, resolved from @vendure/core, on first use. */
  private load(): Bcrypt {
    this.bcrypt ??= createRequire(import.meta.resolve('@vendure/core'))('bcrypt') as Bcrypt;
    return this.bcrypt;
  }
}
