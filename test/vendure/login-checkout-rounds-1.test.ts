import { describeLoginCheckoutRounds, ROUNDS } from './helpers/login-checkout-rounds.js';

// Part 1 of the rounds (test/vendure/helpers/login-checkout-rounds.ts): half of them, on a shop of its own.
describeLoginCheckoutRounds(1, Math.ceil(ROUNDS / 2));
