import { readFileSync } from 'node:fs';
import type { HostRuntime } from '../../host/contract.js';

export const MAIL = {
  invitation: 'employee-invitation',
  passwordlessLogin: 'employee-passwordless-login',
  passwordRecovery: 'employee-password-recovery',
  accountRequestReceived: 'account-request-received',
  accountRequestAccepted: 'account-request-accepted',
} as const;

const TEMPLATE_FOLDER = new URL('../../../templates/mail/', import.meta.url);

/** The add-on's templates (also listed in plugin.json's mailTemplates). */
export function registerEmployeeMailTemplates(host: HostRuntime): void {
  for (const name of Object.values(MAIL)) {
    const read = (part: string) => readFileSync(new URL(`${name}.${part}.hbs`, TEMPLATE_FOLDER), 'utf8');
    host.mail.registerTemplate(name, { subject: read('subject'), html: read('html'), text: read('text') });
  }
}
