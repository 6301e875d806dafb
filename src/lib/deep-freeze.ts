/**
 * Freezes a plain value and everything it holds, so a value kept per process and shared by
 * requests cannot be changed by one of them (strict-mode code that tries throws a TypeError).
 */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
