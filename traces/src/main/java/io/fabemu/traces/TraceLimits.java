package io.fabemu.traces;

/**
 * The bounds of decoding a Chakra trace, so that a hostile or broken file costs bounded memory and time (as the Kryo
 * decoder of the wire bounds its collections): every bound is checked before the data it guards is kept.
 *
 * @param maxMessageBytes      the largest length-delimited message (GlobalMetadata or Node), in bytes
 * @param maxNodesPerRank      the most nodes in one rank file
 * @param maxDepsPerNode       the most dependencies of one node, data_deps and ctrl_deps together
 * @param maxAttributesPerNode the most attributes of one node (and of GlobalMetadata)
 * @param maxStringChars       the longest string kept: a node's name, a string attribute or one entry of a list
 * @param maxFileBytes         the largest rank file, in bytes, counted on disk and again after gzip decompression
 */
public record TraceLimits(
    int maxMessageBytes, int maxNodesPerRank, int maxDepsPerNode, int maxAttributesPerNode, int maxStringChars,
    long maxFileBytes) {

  /** 1 MiB: a node of Chakra's converters is tens to hundreds of bytes; a megabyte holds thousands of dependencies. */
  public static final int DEFAULT_MAX_MESSAGE_BYTES = 1 << 20;
  /** 4 Mi nodes per rank: recorded training steps hold thousands to a few hundred thousand. */
  public static final int DEFAULT_MAX_NODES_PER_RANK = 1 << 22;
  /** 65,536 dependencies per node. */
  public static final int DEFAULT_MAX_DEPS_PER_NODE = 1 << 16;
  /** 1,024 attributes per node: the converters write about ten. */
  public static final int DEFAULT_MAX_ATTRIBUTES_PER_NODE = 1024;
  /** 4,096 characters per string: operator names and process-group names are short. */
  public static final int DEFAULT_MAX_STRING_CHARS = 4096;
  /** 2 GiB per rank file, compressed or not. */
  public static final long DEFAULT_MAX_FILE_BYTES = 2L << 30;

  /** The defaults above. */
  public static final TraceLimits DEFAULTS = new TraceLimits(DEFAULT_MAX_MESSAGE_BYTES, DEFAULT_MAX_NODES_PER_RANK,
      DEFAULT_MAX_DEPS_PER_NODE, DEFAULT_MAX_ATTRIBUTES_PER_NODE, DEFAULT_MAX_STRING_CHARS, DEFAULT_MAX_FILE_BYTES);

  public TraceLimits {
    positive("maxMessageBytes", maxMessageBytes);
    positive("maxNodesPerRank", maxNodesPerRank);
    positive("maxDepsPerNode", maxDepsPerNode);
    positive("maxAttributesPerNode", maxAttributesPerNode);
    positive("maxStringChars", maxStringChars);
    positive("maxFileBytes", maxFileBytes);
  }

  private static void positive(String name, long value) {
    if (value <= 0) {
      throw new IllegalArgumentException("trace limit " + name + " must be positive, got " + value);
    }
  }
}
