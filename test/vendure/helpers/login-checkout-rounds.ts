import { expect } from 'chai';
import { DEMO_CUSTOMER } from '../../../examples/vendure-shop/shop.js';
import { newId } from '../../../src/lib/ids.js';
import { DEMO_APPROVER } from '../../../src/plugin/employee/demo.js';
import { bearer, bootShop, type GqlAnswer, type RestAnswer, type ShopClient } from './shop.js';

/**
 * Rounds of the run: 200 on SQLite, whose two writing connections the run is about; 20 on
 * MariaDB and PostgreSQL (row locks, no database-wide write lock), to keep the suite's time there.
 * `VENDURE_ROUNDS` sets it. The rounds are split over two test files, each with a shop of its own,
 * so two test processes share them (test/vendure/login-checkout-rounds-{1,2}.test.ts).
 */
export const ROUNDS = Number(
  process.env.VENDURE_ROUNDS ?? (/^(mysql|mariadb|postgres(ql)?):/.test(process.env.DATABASE_URL ?? '') ? 20 : 200),
);
/** The rounds take turns among this many employees (each login a new session of one of them). */
const EMPLOYEES = 25;

/**
 * Vendure's connection and the plugin's share the database; on SQLite they contend for its one
 * write lock (docs/vendure.md, Limits): an employee login once answered 409 `SUITE__CONFLICT`
 * beside Vendure's job queue writing after an order. Sequential rounds of what a storefront does —
 * an employee logs in (the plugin's login route, then Vendure's `authenticate`) and checks out a
 * line through Vendure's Shop API — with both job workers running (Vendure's job queue and the
 * plugin's, which mails the order confirmations): no answer may be a 409 or a 5xx, and no GraphQL
 * answer may carry an error. Runs on every database; the contention it guards against is SQLite's.
 */
export function describeLoginCheckoutRounds(part: number, rounds: number): void {
  describe(`Vendure: sequential employee logins and Shop API checkouts with the job workers running (part ${part})`, function () {
    this.timeout(600_000);
    let client: ShopClient;
    let paperVariantId: string;
    const employees: string[] = [];
    const PASSWORD = 'rounds-2026';

    const failures: string[] = [];
    const checkRest = (what: string, answer: RestAnswer) => {
      if (answer.status === 409 || answer.status >= 500)
        failures.push(`${what}: ${answer.status} ${JSON.stringify(answer.body)}`);
    };
    const checkGql = (what: string, answer: GqlAnswer) => {
      if (answer.errors?.length) failures.push(`${what}: ${JSON.stringify(answer.errors)}`);
    };

    before(async function () {
      this.timeout(240_000);
      client = await bootShop({ label: `vendure_rounds_${part}` });
      const { data } = await client.gql('shop-api', '{ product(slug: "copy-paper-a4") { variants { id } } }');
      paperVariantId = data.product.variants[0].id;
      const companyAdmin = bearer(await client.vendureLogin('shop-api', DEMO_CUSTOMER.email, DEMO_CUSTOMER.password));
      // The approver's role orders without approval; no budget covers new employees.
      const approver = await client.employeeHeaders(DEMO_APPROVER.email, DEMO_APPROVER.password);
      const roleId = (await client.rest('GET', '/store-api/context', approver)).body.employee.roleId as string;
      for (let i = 0; i < EMPLOYEES; i++) {
        const email = `round-${i}-${newId().slice(0, 6)}@demo-company.test`;
        const created = await client.rest('POST', '/store-api/b2b/employee', companyAdmin, {
          email,
          firstName: `Round ${i}`,
          lastName: 'Buyer',
          roleId,
          password: PASSWORD,
        });
        expect(created.status, JSON.stringify(created.body)).to.equal(200);
        employees.push(email);
      }
      await client.settleJobs();
    });

    after(async function () {
      this.timeout(60_000);
      await client?.close();
    });

    it(`${rounds} rounds of login and checkout answer no 409 and no 5xx, and every order is placed`, async () => {
      const started = Date.now();
      const placed: string[] = [];
      for (let round = 0; round < rounds; round++) {
        const email = employees[round % EMPLOYEES]!;
        // The login route allows ten logins a minute from one address: the counters start afresh, as after a minute
        // (one more write of the plugin's connection each round).
        await client.shop.state.db('rate_limit_counters').delete();
        const login = await client.rest('POST', '/store-api/account/login', {}, { email, password: PASSWORD });
        checkRest(`round ${round} login`, login);
        if (login.status !== 200) {
          failures.push(`round ${round} login: ${login.status} ${JSON.stringify(login.body)}`);
          continue;
        }
        const contextToken = login.body.contextToken as string;
        const authenticated = await client.gql(
          'shop-api',
          'mutation ($t: String!) { authenticate(input: { suiteB2B: { contextToken: $t } }) { __typename } }',
          { t: contextToken },
        );
        checkGql(`round ${round} authenticate`, authenticated);
        if (!authenticated.token) {
          failures.push(`round ${round} authenticate: no session token ${JSON.stringify(authenticated.data)}`);
          continue;
        }
        const headers = { ...bearer(authenticated.token), 'suite-context-token': contextToken };
        const step = async (what: string, query: string, variables: Record<string, unknown> = {}) => {
          const answer = await client.gql('shop-api', query, variables, headers);
          checkGql(`round ${round} ${what}`, answer);
          return answer;
        };
        await step('add', 'mutation ($v: ID!) { addItemToOrder(productVariantId: $v, quantity: 1) { __typename } }', {
          v: paperVariantId,
        });
        await step(
          'address',
          'mutation { setOrderShippingAddress(input: { fullName: "Demo Company", streetLine1: "Hauptstr. 1", city: "Berlin", postalCode: "10115", countryCode: "DE" }) { __typename } }',
        );
        const methods = await step('shipping methods', '{ eligibleShippingMethods { id } }');
        await step(
          'shipping',
          'mutation ($id: [ID!]!) { setOrderShippingMethod(shippingMethodId: $id) { __typename } }',
          { id: [methods.data?.eligibleShippingMethods?.[0]?.id] },
        );
        const toPayment = await step(
          'to payment',
          'mutation { transitionOrderToState(state: "ArrangingPayment") { __typename ... on OrderStateTransitionError { transitionError } } }',
        );
        if (toPayment.data?.transitionOrderToState?.__typename !== 'Order')
          failures.push(`round ${round} to payment: ${JSON.stringify(toPayment.data)}`);
        const paid = await step(
          'payment',
          'mutation { addPaymentToOrder(input: { method: "invoice", metadata: {} }) { __typename ... on Order { code state } ... on ErrorResult { errorCode message } } }',
        );
        if (paid.data?.addPaymentToOrder?.state === 'PaymentAuthorized')
          placed.push(paid.data.addPaymentToOrder.code as string);
        else failures.push(`round ${round} payment: ${JSON.stringify(paid.data)}`);
      }
      const seconds = (Date.now() - started) / 1000;
      console.log(
        `      ${rounds} rounds in ${seconds.toFixed(1)} s (${((seconds * 1000) / rounds).toFixed(0)} ms a round)`,
      );
      expect(failures.slice(0, 10), `${failures.length} failed steps`).to.deep.equal([]);
      expect(new Set(placed).size, JSON.stringify(placed)).to.equal(rounds);
    });
  });
}
