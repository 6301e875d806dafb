import { expect } from 'chai';
import { idMapper } from '../../../src/adapters/vendure/ids.js';
import { isId } from '../../../src/lib/ids.js';

describe('Vendure ids in the plugin', () => {
  it("maps AutoIncrementIdStrategy ids to the plugin's 32-hex form and back", () => {
    const ids = idMapper('increment');
    expect(ids.toPlugin(42)).to.equal('00000000000000000000000000000042');
    expect(isId(ids.toPlugin('123456'))).to.equal(true);
    expect(ids.toVendure('00000000000000000000000000000042')).to.equal('42');
    // Not a Vendure id of this shop: answered as unknown, never guessed.
    expect(ids.toVendure('0000000000000000000000000000000a')).to.equal(null);
    expect(ids.toVendure('00000000000000000000000000000000')).to.equal(null);
    expect(ids.toVendure('42')).to.equal(null);
  });

  it('maps UuidIdStrategy ids to the UUID without dashes and back', () => {
    const ids = idMapper('uuid');
    const uuid = '0b5f2c1e-8d3a-4f6b-9c7d-2e1f0a9b8c7d';
    expect(ids.toPlugin(uuid)).to.equal('0b5f2c1e8d3a4f6b9c7d2e1f0a9b8c7d');
    expect(isId(ids.toPlugin(uuid))).to.equal(true);
    expect(ids.toVendure(ids.toPlugin(uuid))).to.equal(uuid);
    expect(ids.toVendure('not-an-id')).to.equal(null);
  });
});
