import express, { type Router } from 'express';
import type { HostRuntime } from '../contract.js';
import type { HostInternals } from '../internals.js';

export interface StorefrontModule extends Pick<HostRuntime, 'storefront'> {
  router: Router;
}

/** Server-rendered storefront shell. (Stub: filled in by the storefront module.) */
export function createStorefrontModule(internals: HostInternals): StorefrontModule {
  return {
    storefront: {
      page: (page) => void internals.registries.storefrontPages.push(page),
      url: (salesChannel, path) => `${(salesChannel.domains[0] ?? internals.config.publicUrl).replace(/\/$/, '')}${path.startsWith('/') ? path : `/${path}`}`,
    },
    router: express.Router(),
  };
}
