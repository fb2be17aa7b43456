/**
 * SQL that moves each of `tables` from the `from` schema into `to`, with its rows, when this role
 * owns it there and `to` has no table of that name yet: how a service takes over tables another
 * service created (one database user: all-in-one and single-user installs). With a role per
 * service the superuser's deploy/db-roles.sql has moved them before; a table that is nowhere is
 * left for the migration's create statements.
 */
export function moveTablesSql(from: string, to: string, tables: readonly string[]): string {
  return `do $$
      declare
        moved text;
      begin
        foreach moved in array array[${tables.map((t) => `'${t}'`).join(', ')}] loop
          if exists (select 1 from pg_class c join pg_namespace n on n.oid = c.relnamespace
                     where n.nspname = '${from}' and c.relname = moved and c.relkind = 'r' and pg_has_role(c.relowner, 'USAGE'))
             and not exists (select 1 from pg_class c join pg_namespace n on n.oid = c.relnamespace
                             where n.nspname = '${to}' and c.relname = moved) then
            execute format('alter table ${from}.%I set schema ${to}', moved);
          end if;
        end loop;
      end $$;`;
}
