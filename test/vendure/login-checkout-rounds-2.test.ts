import { describeLoginCheckoutRounds, ROUNDS } from './helpers/login-checkout-rounds.js';

// Part 2 of the rounds (test/vendure/helpers/login-checkout-rounds.ts): half of them, on a shop of its own.
describeLoginCheckoutRounds(2, Math.floor(ROUNDS / 2));
