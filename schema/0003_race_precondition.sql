-- The condition over parameters and launch dimensions under which a race's
-- array has no race (the `__requires` that would prove it), when drfscan
-- found one; such races are recorded as `possible`.
ALTER TABLE races ADD COLUMN precondition TEXT;
