import type { HostPlugin, HostRuntime } from '../host/contract.js';

/**
 * Suite B2B. Each add-on lives in its own folder and registers its routes, extension points,
 * mail templates and jobs with the host here, in dependency order.
 */
const plugin: HostPlugin = {
  name: 'suite-b2b',
  async register(host: HostRuntime) {
    void host;
  },
};

export default plugin;
