/** Which product and price point a request names: shared by signup and product migration. */
import type { Product, ProductPricePoint } from '../../domain/catalog/types.js';
import type { Transaction } from '../../engine/transaction.js';
import { err, ok, type Result } from '../../kernel/result.js';
import { findProductPricePoint } from '../catalog/product-price-points.js';
import { findProduct } from '../catalog/products.js';

export interface ProductSelectionFields {
  readonly product_id?: string | undefined;
  readonly product_handle?: string | undefined;
  readonly product_price_point_id?: string | undefined;
  readonly product_price_point_handle?: string | undefined;
}

export interface ProductSelection {
  readonly product: Product;
  readonly pricePoint: ProductPricePoint;
}

/** Why a selection failed, and the field to name in the error. */
export interface SelectionProblem {
  readonly message: string;
  readonly field: 'product_id' | 'product_price_point_id';
}

const handleRef = (handle: string | undefined) => (handle === undefined ? undefined : `handle:${handle}`);

/** The product by id or handle, and its price point by id or handle (its default when neither is given). */
export function selectProduct(
  tx: Transaction,
  fields: ProductSelectionFields,
): Result<ProductSelection, SelectionProblem> {
  const productRef = fields.product_id ?? handleRef(fields.product_handle);
  if (productRef === undefined)
    return err({ message: 'Product: must be given by product_id or product_handle.', field: 'product_id' });
  const product = findProduct(tx, productRef);
  if (product === undefined) return err({ message: 'Product: not found.', field: 'product_id' });
  const pricePointRef = fields.product_price_point_id ?? handleRef(fields.product_price_point_handle);
  const pricePoint =
    pricePointRef === undefined
      ? tx.get('productPricePoints', product.defaultPricePointId)
      : findProductPricePoint(tx, product, pricePointRef);
  if (pricePoint === undefined)
    return err({ message: 'Product price point: not found.', field: 'product_price_point_id' });
  return ok({ product, pricePoint });
}
