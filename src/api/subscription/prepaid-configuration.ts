/** A subscription's prepaid configuration (`POST /subscriptions/{id}/prepaid_configurations.json`). */

import type { SiteState } from '../../engine/state.js';
import {
  type PrepaidConfigurationChange,
  setPrepaidConfiguration,
} from '../../engine/subscription/prepaid-configuration.js';
import { fromMinor } from '../../kernel/money.js';
import { err } from '../../kernel/result.js';
import { decodeBody, missing } from '../common.js';
import { z, zBool, zInt } from '../decode.js';
import { type Route, reply } from '../route.js';
import { presentPrepaidConfiguration } from './prepaid-configuration-present.js';
import { findSubscription } from './subscriptions.js';

const cents = () => zInt(0, 100_000_000_000_000);
const configurationBody = z.object({
  prepaid_configuration: z.object({
    initial_funding_amount_in_cents: cents().optional(),
    replenish_to_amount_in_cents: cents().optional(),
    auto_replenish: zBool().optional(),
    replenish_threshold_amount_in_cents: cents().optional(),
  }),
});

export const prepaidConfigurationRoutes = [
  {
    method: 'POST',
    path: '/subscriptions/{subscription_id}/prepaid_configurations.json',
    body: configurationBody,
    run: ({ tx, params, body }) => {
      const subscription = findSubscription(tx, params['subscription_id'] ?? '');
      if (subscription === undefined) return err(missing('Subscription'));
      const input = decodeBody(configurationBody, body);
      if (!input.ok) return input;
      const fields = input.value.prepaid_configuration;
      const currency = tx.settings.currency;
      const amount = (value: number | undefined) =>
        value === undefined ? undefined : fromMinor(value, currency);
      const initial = amount(fields.initial_funding_amount_in_cents);
      const replenishTo = amount(fields.replenish_to_amount_in_cents);
      const threshold = amount(fields.replenish_threshold_amount_in_cents);
      const change: PrepaidConfigurationChange = {
        ...(initial === undefined ? {} : { initialFundingAmount: initial }),
        ...(fields.auto_replenish === undefined ? {} : { autoReplenish: fields.auto_replenish }),
        ...(replenishTo === undefined ? {} : { replenishToAmount: replenishTo }),
        ...(threshold === undefined ? {} : { replenishThresholdAmount: threshold }),
      };
      const configured = setPrepaidConfiguration(tx, subscription, change);
      if (!configured.ok) return configured;
      const configuration = configured.value;
      return reply(200, (state: SiteState) => ({
        prepaid_configuration: presentPrepaidConfiguration(state, configuration),
      }));
    },
  },
] as const satisfies readonly Route[];
