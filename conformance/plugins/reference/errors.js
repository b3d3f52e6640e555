// A contract error: the harness (or the module loader) reads `code`, `message` and the optional field and hint.
export class ContractError extends Error {
  constructor(code, message, field, hint) {
    super(message);
    this.code = code;
    if (field) this.location = { field };
    if (hint) this.hint = hint;
  }
}

export const fail = (code, message, field, hint) => {
  throw new ContractError(code, message, field, hint);
};
