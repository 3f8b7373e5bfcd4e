import fc from 'fast-check';

/**
 * HCL native syntax shapes (https://github.com/hashicorp/hcl/blob/main/hclsyntax/spec.md) that Terraform accepts and a
 * dependency reader has to step over, each a top-level body item (or several) written for these tests. `aroundShape`
 * puts one between a `required_providers` block and a registry module call, whose declarations every test expects.
 */
export const HCL_SHAPES: Readonly<Record<string, string>> = {
  'a for tuple whose body starts on the line after the colon': `locals {
  subnets = [
    for zone in var.zones :
    {
      name = "subnet-\${zone}"
      size = 24
    }
  ]
}`,
  'a for object whose body starts on the line after the colon, inside an object value': `locals {
  endpoints = {
    storage = {
      by_name = {
        for item in var.items :
        item.name => item
      }
    }
  }
}`,
  'a for tuple with key and value variables and a condition': `locals {
  pairs  = [for k, v in var.map : "\${k}=\${v}" if v != null]
  nested = [for row in var.rows : [for cell in row : cell * 2]]
}`,
  'a quoted template as an object key': `locals {
  namespaces = {
    "team-\${each.key}" = {
      labels = merge(
        { team = each.key },
        try(each.value.labels, {})
      )
    }
    "static" = {}
  }
}`,
  'object keys that are expressions: parenthesised, references, conditionals': `locals {
  keyed = {
    (var.key)            = 1
    (var.on ? "a" : "b") = 2
    var.other            = 3
    local.flag ? "c" : "d" = 4
    "quoted": 5,
    bare: 6
  }
}`,
  'line breaks inside parentheses and brackets': `locals {
  joined = join(
    "-",
    [
      "a",
      "b"
    ]
  )
  total = (
    1 +
    2
  )
  spaced = [
    "x"
    ,
    "y"
  ]
  sums = [
    1
    + 2,
    var.x
    ? 3
    : 4
  ]
}`,
  'heredocs, plain and indented, holding brackets, quotes and templates': `locals {
  script = <<EOT
echo "\${var.name}" { [ (
%{ if var.on }on%{ endif }
EOT
  indented = <<-EOF
    some ] text }
      EOF
  across = <<EOT
\${join(",", [
EOT
])}
EOT
  passed = format(<<TEXT
%s
TEXT
  , "x")
}`,
  'template directives inside quoted strings': `locals {
  greeting = "Hi %{ if var.name != "" }\${var.name}%{ else }you%{ endif }!"
  items    = "%{ for x in var.xs ~}[\${x}]%{ endfor ~}"
  literal  = "$\${not.a.template} %%{ nor this }"
}`,
  'nested interpolations with quotes, line breaks and comments inside': `locals {
  nested = "\${format("%s-%s", "\${var.a}", lookup(var.m, "k", "}"))}"
  spread = "\${
    var.multi
  }"
  commented = "\${var.a # a comment holding } and "
  }"
}`,
  'splat expressions and index keys': `locals {
  ids    = aws_instance.web[*].id
  legacy = aws_instance.web.*.private_ip
  tagged = aws_instance.web[0].tags["Name"]
  full   = var.list[*]
}`,
  'a conditional across lines inside parentheses': `locals {
  size = (
    var.large
    ? "xl"
    : "s"
  )
}`,
  'comments of the three kinds, holding brackets and quotes': `# hash comment { [ "
// slash comment ] }
/* block
   comment } " */
locals {
  a = 1 # trailing {
  b = 2 // trailing [
  c = /* inline ] */ 3
}`,
  'trailing commas in tuples, objects and calls': `locals {
  list = ["a", "b",]
  obj  = { a = 1, b = 2, }
  call = coalesce(var.a, var.b,)
}`,
  'the ellipsis in calls and grouping for expressions': `locals {
  biggest = max(var.numbers...)
  grouped = { for s in var.services : s.team => s.name... }
}`,
  'Unicode identifiers with dashes': `locals {
  größe-ü = 1
  名前 = "x"
}`,
  'numbers and operators': `locals {
  value = -1.5e3 * 2 % 3 >= 1 && !false || 2 != 3
}`,
};

/** `shape` between a `required_providers` block (`acme-corp/acme`, `~> 1.4`) and a module (`example-org/storage/acme`, `2.3.0`). */
export function aroundShape(shape: string): string {
  return [
    'terraform {',
    '  required_providers {',
    '    acme = {',
    '      source  = "acme-corp/acme"',
    '      version = "~> 1.4"',
    '    }',
    '  }',
    '}',
    '',
    shape,
    '',
    'module "storage" {',
    '  source  = "example-org/storage/acme"',
    '  version = "2.3.0"',
    '}',
    '',
  ].join('\n');
}

/** Gaps between tokens: where HCL ignores line breaks (`inside` brackets, `for` expressions, templates) or not. */
const gap = (inside: boolean): fc.Arbitrary<string> =>
  inside ? fc.constantFrom(' ', '\n', '\n    ', ' # note {\n', ' // note ]\n', ' /* note ) */ ') : fc.constantFrom(' ', ' /* note } */ ');

const REFERENCES = [
  'var.names',
  'local.size',
  'each.key',
  'aws_instance.web[0].id',
  'aws_instance.web[*].id',
  'aws_instance.web.*.id',
  'local.größe-ü',
];
const LEAVES = ['"text"', '""', '1', '2.5e3', 'true', 'null', ...REFERENCES];

/**
 * HCL expressions of the native syntax (`in`: where line breaks are ignored, `out`: where they end the expression),
 * built from the shapes of {@link HCL_SHAPES}: multi-line `for` expressions, objects with template, parenthesised and
 * conditional keys, tuples and calls with trailing commas and `...`, conditionals across lines in parentheses,
 * templates with `${ }` / `%{ }` and nested quotes, heredocs, splats and comments.
 */
export const hclExpressions = fc.letrec<{ in: string; out: string }>((tie) => {
  const build = (inside: boolean): fc.Arbitrary<string> => {
    const self = tie(inside ? 'in' : 'out');
    const inner = tie('in');
    const outer = tie('out');
    const g = gap(true);
    const key = fc.oneof(
      fc.constantFrom('plain', '"quoted"', 'größe-ü'),
      inner.map((e) => `"team-\${${e}}"`),
      fc.tuple(inner, g).map(([e, s]) => `(${s}${e}${s})`),
      fc.tuple(fc.constantFrom(...REFERENCES), inner, inner).map(([c, a, b]) => `${c} ? ${a} : ${b}`),
    );
    const items = fc.array(fc.tuple(g, inner, g), { maxLength: 3 }).map((list) => list.map(([a, e, b]) => `${a}${e}${b}`));
    return fc.oneof(
      { depthSize: 'small', maxDepth: 4, depthIdentifier: 'hcl' },
      fc.constantFrom(...LEAVES),
      fc.tuple(items, fc.boolean()).map(([list, comma]) => `[${list.join(',')}${comma && list.length > 0 ? ',' : ''}]`),
      fc
        .tuple(fc.constantFrom('max', 'merge', 'format'), items, fc.boolean(), fc.boolean())
        .map(([name, list, spread, comma]) => `${name}(${list.join(',')}${list.length === 0 ? '' : spread ? '...' : comma ? ',' : ''})`),
      fc
        .tuple(fc.array(fc.tuple(key, outer), { maxLength: 3 }), fc.boolean())
        .map(([entries, lines]) =>
          lines
            ? `{\n${entries.map(([k, v]) => `    ${k} = ${v}\n`).join('')}  }`
            : `{ ${entries.map(([k, v]) => `${k} = ${v}`).join(', ')} }`,
        ),
      fc
        .tuple(inner, g, inner, fc.option(inner, { nil: undefined }))
        .map(([list, s, body, condition]) => `[for k, v in ${list} :${s}${body}${condition === undefined ? '' : ` if ${condition}`}]`),
      fc
        .tuple(g, inner, g, inner, fc.boolean())
        .map(([a, list, s, value, group]) => `{${a}for item in ${list} :${s}item => ${value}${group ? '...' : ''}${a}}`),
      fc.tuple(g, inner, inner, inner).map(([s, c, a, b]) => `(${s}${c}${s}? ${a}${s}: ${b}${s})`),
      fc.tuple(self, fc.constantFrom('+', '*', '==', '&&', '||', '%'), self).map(([a, op, b]) => `${a} ${op} ${b}`),
      self.map((e) => `!${e}`),
      fc.tuple(inner, inner).map(([a, b]) => `"pre-\${${a}}-%{ if ${b} }yes%{ else }no%{ endif }-\${"q\${"x"}"}"`),
      fc
        .tuple(inner, fc.constantFrom('<<', '<<-'))
        .map(([e, form]) => `(${form}EOT\n  line { ] " \${${e}}\n  %{ for x in ${e} }\${x}%{ endfor }\n  EOT\n)`),
    );
  };
  return { in: build(true), out: build(false) };
});

/** A Terraform file holding `expression` before and after a `required_providers` block, and in a module call. */
export function aroundExpression(expression: string): string {
  return aroundShape(`locals {\n  value = ${expression}\n}`).replace(
    '  version = "2.3.0"\n',
    () => `  version = "2.3.0"\n\n  inputs = {\n    first = ${expression}\n  }\n`,
  );
}
