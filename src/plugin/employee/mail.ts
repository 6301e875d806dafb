/** The add-on's mail templates (templates/mail/<name>.*.hbs); the host registers them from plugin.json's mailTemplates. */
export const MAIL = {
  invitation: 'employee-invitation',
  passwordlessLogin: 'employee-passwordless-login',
  passwordRecovery: 'employee-password-recovery',
  accountRequestReceived: 'account-request-received',
  accountRequestAccepted: 'account-request-accepted',
} as const;
