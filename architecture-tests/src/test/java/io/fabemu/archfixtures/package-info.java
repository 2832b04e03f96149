/**
 * A tiny fake fabemu, laid out like the real one under this root, with one deliberate violation per architecture
 * rule (and a few allowed uses next to them). Test sources only: the real {@code ArchitectureTest} never imports
 * these classes; {@code ArchitectureRulesCanFailTest} does, to prove each rule can fail.
 */
package io.fabemu.archfixtures;
