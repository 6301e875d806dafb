import { expect } from 'chai';
import supertest from 'supertest';
import { getShop } from '../../helpers/shop.js';
import { sideApp } from '../../helpers/side-app.js';

const METRICS_TOKEN = 'metrics-token-for-tests-0123456789';

describe('host: /metrics', () => {
  it('is off without METRICS_TOKEN', async () => {
    const res = await supertest((await getShop()).app).get('/metrics');
    expect(res.status).to.equal(404);
    expect(res.text).not.to.include('suite_http_request_duration_seconds');
  });

  it('asks for the bearer token when one is set', async () => {
    const { shop } = await sideApp({ logLevel: 'silent', metricsToken: METRICS_TOKEN });
    const agent = supertest(shop.app);
    expect((await agent.get('/metrics')).status).to.equal(401);
    expect((await agent.get('/metrics').set('authorization', 'Bearer wrong')).status).to.equal(401);
    await shop.close();
  });

  it('exposes request durations by route pattern and status, the pool, the job queue and the mail outbox in Prometheus text', async () => {
    const { shop } = await sideApp({ logLevel: 'silent', metricsToken: METRICS_TOKEN });
    const agent = supertest(shop.app);
    await agent.post('/store-api/product').send({ limit: 1 });
    await agent.get('/store-api/product/0123456789abcdef0123456789abcdef');
    const res = await agent.get('/metrics').set('authorization', `Bearer ${METRICS_TOKEN}`);
    expect(res.status).to.equal(200);
    expect(res.headers['content-type']).to.match(/^text\/plain/);
    const text = res.text;
    expect(text).to.match(
      /^suite_http_request_duration_seconds_count\{method="POST",route="\/store-api\/product",status="200"\} 1$/m,
    );
    expect(text).to.match(
      /^suite_http_request_duration_seconds_bucket\{le="0\.1",method="GET",route="\/store-api\/product\/\{productId\}",status="404"\} \d+$/m,
    );
    for (const name of [
      'suite_db_pool_connections_in_use',
      'suite_db_pool_connections_idle',
      'suite_db_pool_acquires_waiting',
      'suite_database_up 1',
      'suite_jobs{state="queued"}',
      'suite_jobs{state="failed"}',
      'suite_job_queue_due',
      'suite_mail_outbox{state="queued"}',
      'suite_mail_outbox{state="failed"}',
      'suite_process_cpu_seconds_total',
    ])
      expect(text, name).to.include(name);
    expect(text, 'no concrete ids as labels').not.to.include('0123456789abcdef0123456789abcdef');
    await shop.close();
  });
});
