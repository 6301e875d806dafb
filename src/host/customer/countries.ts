import { Errors } from '../../lib/errors.js';

/**
 * The countries the reference host knows: the 249 ISO 3166-1 alpha-2 codes, and XK (Kosovo, user-
 * assigned but used by shops and carriers). An address with any other code is refused with 400
 * `SUITE__UNKNOWN_COUNTRY`, as the contract says (`customers.createAddress`) and the Vendure adapter
 * answers for a country its shop lacks (decision 0046).
 */
const CODES =
  'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY ' +
  'BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM ' +
  'FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT ' +
  'JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN ' +
  'MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT ' +
  'PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL ' +
  'TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS XK YE YT ZA ZM ZW';

export const KNOWN_COUNTRIES: ReadonlySet<string> = new Set(CODES.split(' '));

/** The code in upper case when the host knows the country; else 400 `SUITE__UNKNOWN_COUNTRY` at /countryCode. */
export function knownCountry(countryCode: string): string {
  const code = countryCode.toUpperCase();
  if (!KNOWN_COUNTRIES.has(code))
    throw Errors.badRequest('SUITE__UNKNOWN_COUNTRY', `The shop does not know the country "${countryCode}".`, {
      pointer: '/countryCode',
    });
  return code;
}
