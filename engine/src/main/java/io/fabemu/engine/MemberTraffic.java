package io.fabemu.engine;

/**
 * What one member of a distributed run sent to the others, counted by its scheduler: the events its devices sent
 * to devices of other members and their estimated size on the wire ({@link EventSizes}). Display only: it depends
 * on the placement, never on the results.
 *
 * @param memberId    the member
 * @param devices     devices it hosted
 * @param crossEvents events it sent to other members
 * @param crossBytes  their estimated bytes
 */
public record MemberTraffic(int memberId, int devices, long crossEvents, long crossBytes) implements WireMessage {}
