import { expect } from 'chai';
import { http } from './shop.js';

export const csrfOf = (html: string) => /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';

export type StorefrontVisitor = Awaited<ReturnType<typeof storefrontVisitor>>;

/** A browser-like storefront visitor: a cookie jar, and the CSRF field of the last page it saw sent with every form. */
export async function storefrontVisitor() {
  const agent = await http();
  let csrf = '';
  const remember = (text: string) => {
    if (csrfOf(text)) csrf = csrfOf(text);
  };
  return {
    agent,
    async get(path: string) {
      const res = await agent.get(path);
      remember(res.text ?? '');
      return res;
    },
    async post(path: string, form: Record<string, string | string[]> = {}) {
      const res = await agent
        .post(path)
        .type('form')
        .send({ _csrf: csrf, ...form });
      remember(res.text ?? '');
      return res;
    },
    /** A form with a file input, sent as multipart/form-data (the CSRF field first, as the page's form has it). */
    async upload(
      path: string,
      fields: Record<string, string | string[]> = {},
      files: Record<string, { content: string | Buffer; fileName: string }> = {},
      withCsrf = true,
    ) {
      let request = agent.post(path);
      if (withCsrf) request = request.field('_csrf', csrf);
      for (const [name, value] of Object.entries(fields))
        for (const item of Array.isArray(value) ? value : [value]) request = request.field(name, item);
      for (const [name, file] of Object.entries(files))
        request = request.attach(name, Buffer.isBuffer(file.content) ? file.content : Buffer.from(file.content), {
          filename: file.fileName,
          contentType: 'text/csv',
        });
      const res = await request;
      remember(res.text ?? '');
      return res;
    },
    /** A form post without the CSRF field, as a forged cross-site form would send it. */
    async forge(path: string, form: Record<string, string> = {}) {
      return agent.post(path).type('form').send(form);
    },
    /** Logs in through the storefront login form. */
    async login(email: string, password: string) {
      await this.get('/account/login');
      const res = await this.post('/account/login', { email, password, redirect: '/account' });
      expect(res.status, res.text).to.equal(303);
      await this.get('/account');
    },
  };
}

export async function loggedInVisitor(email: string, password: string): Promise<StorefrontVisitor> {
  const visitor = await storefrontVisitor();
  await visitor.login(email, password);
  return visitor;
}
