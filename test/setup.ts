import { closeShop } from './helpers/shop.js';

/** Root hooks: the shared app is created lazily by the first test that needs it and closed once at the end. */
export const mochaHooks = {
  async afterAll() {
    await closeShop();
  },
};
