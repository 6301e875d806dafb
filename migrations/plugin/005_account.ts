import type { Knex } from 'knex';

const id = (t: Knex.CreateTableBuilder, name = 'id') => t.string(name, 32);
const time = (t: Knex.CreateTableBuilder, name: string) => t.datetime(name, { precision: 3, useTz: false });
const stamps = (t: Knex.CreateTableBuilder) => {
  time(t, 'created_at').notNullable();
  time(t, 'updated_at').nullable();
};

/** Default storefront texts; operators may change the rows. Keyed by the language's primary subtag. */
const SNIPPETS: Record<string, Record<string, string>> = {
  en: {
    'b2b.menu.account': 'My account',
    'b2b.menu.overview': 'Overview',
    'b2b.menu.company': 'Company',
    'b2b.menu.employees': 'Employees',
    'b2b.menu.roles': 'Roles',
    'b2b.menu.invitations': 'Invitations',
    'b2b.menu.ordering': 'Ordering',
    'b2b.menu.orders': 'Orders',
    'b2b.menu.orderApprovals': 'Order approvals',
    'b2b.menu.budgets': 'Budgets',
    'b2b.menu.fastOrder': 'Fast order',
    'b2b.menu.productLists': 'Product lists',
    'b2b.menu.customerProductNumbers': 'Customer product numbers',
    'b2b.menu.offers': 'Offers',
    'b2b.menu.events': 'Events',
    'b2b.menu.documents': 'Documents',
    'b2b.menu.expressCheckout': 'Express checkout',
    'b2b.menu.salesRepresentative': 'Sales representative',
    'b2b.menu.customers': 'My customers',
    'b2b.menu.customerActivities': 'Customer activities',
    'b2b.menu.salesStatistics': 'Sales statistics',
    'b2b.employee.firstName': 'First name',
    'b2b.employee.lastName': 'Last name',
    'b2b.employee.email': 'E-mail address',
    'b2b.employee.department': 'Department',
    'b2b.employee.role': 'Role',
    'b2b.employee.active': 'Active',
    'b2b.action.save': 'Save',
    'b2b.action.cancel': 'Cancel',
    'b2b.action.delete': 'Delete',
    'b2b.action.switchCustomer': 'Act for this customer',
    'b2b.address.billing': 'Billing address',
    'b2b.address.shipping': 'Shipping address',
    'b2b.address.switched': 'The default address was changed.',
    'b2b.document.invoice': 'Invoice',
    'b2b.salesRepresentative.contact': 'Your sales representative',
  },
  de: {
    'b2b.menu.account': 'Mein Konto',
    'b2b.menu.overview': 'Übersicht',
    'b2b.menu.company': 'Unternehmen',
    'b2b.menu.employees': 'Mitarbeiter',
    'b2b.menu.roles': 'Rollen',
    'b2b.menu.invitations': 'Einladungen',
    'b2b.menu.ordering': 'Bestellen',
    'b2b.menu.orders': 'Bestellungen',
    'b2b.menu.orderApprovals': 'Bestellfreigaben',
    'b2b.menu.budgets': 'Budgets',
    'b2b.menu.fastOrder': 'Schnellbestellung',
    'b2b.menu.productLists': 'Produktlisten',
    'b2b.menu.customerProductNumbers': 'Kundenartikelnummern',
    'b2b.menu.offers': 'Angebote',
    'b2b.menu.events': 'Veranstaltungen',
    'b2b.menu.documents': 'Dokumente',
    'b2b.menu.expressCheckout': 'Express-Checkout',
    'b2b.menu.salesRepresentative': 'Außendienst',
    'b2b.menu.customers': 'Meine Kunden',
    'b2b.menu.customerActivities': 'Kundenaktivitäten',
    'b2b.menu.salesStatistics': 'Umsatzstatistik',
    'b2b.employee.firstName': 'Vorname',
    'b2b.employee.lastName': 'Nachname',
    'b2b.employee.email': 'E-Mail-Adresse',
    'b2b.employee.department': 'Abteilung',
    'b2b.employee.role': 'Rolle',
    'b2b.employee.active': 'Aktiv',
    'b2b.action.save': 'Speichern',
    'b2b.action.cancel': 'Abbrechen',
    'b2b.action.delete': 'Löschen',
    'b2b.action.switchCustomer': 'Für diesen Kunden handeln',
    'b2b.address.billing': 'Rechnungsadresse',
    'b2b.address.shipping': 'Lieferadresse',
    'b2b.address.switched': 'Die Standardadresse wurde geändert.',
    'b2b.document.invoice': 'Rechnung',
    'b2b.salesRepresentative.contact': 'Ihr Außendienstmitarbeiter',
  },
};

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('b2b_snippets', (t) => {
    id(t).primary();
    t.string('language', 16).notNullable();
    t.string('snippet_key', 191).notNullable();
    t.text('value').notNullable();
    stamps(t);
    t.unique(['language', 'snippet_key'], { indexName: 'b2b_snippets_key_unique' });
  });
  /** Express checkout defaults of one buyer (the customer login, an employee or a representative) for one customer. */
  await knex.schema.createTable('b2b_express_checkout_settings', (t) => {
    id(t).primary();
    id(t, 'customer_id').notNullable();
    t.string('actor_type', 32).notNullable();
    id(t, 'actor_id').notNullable();
    t.boolean('enabled').notNullable().defaultTo(false);
    t.string('default_payment_method', 64).nullable();
    t.string('default_shipping_method', 64).nullable();
    id(t, 'default_billing_address_id').nullable();
    id(t, 'default_shipping_address_id').nullable();
    stamps(t);
    t.unique(['customer_id', 'actor_type', 'actor_id'], { indexName: 'b2b_ecs_owner_unique' });
  });
  const now = new Date().toISOString().replace('T', ' ').replace('Z', '');
  let n = 0;
  for (const [language, entries] of Object.entries(SNIPPETS)) {
    const rows = Object.entries(entries).map(([key, value]) => ({
      id: `00000000000000000000000005${String(++n).padStart(6, '0')}`,
      language,
      snippet_key: key,
      value,
      created_at: now,
    }));
    await knex('b2b_snippets').insert(rows);
  }
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('b2b_express_checkout_settings');
  await knex.schema.dropTableIfExists('b2b_snippets');
}
