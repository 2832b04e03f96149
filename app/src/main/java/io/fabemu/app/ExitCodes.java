package io.fabemu.app;

/**
 * The exit codes of every {@code fabemu} command: {@value #OK} success; {@value #RUN_FAILED} the run finished with
 * wrong output or incomplete, a result file could not be written, or an unexpected error; {@value #BAD_INPUT} bad
 * input, reported as one line before anything runs or is written; {@value #LOST_MEMBER} a cluster member was lost
 * mid-run. {@link Main} describes each case.
 */
public final class ExitCodes {
  public static final int OK = 0;
  public static final int RUN_FAILED = 1;
  public static final int BAD_INPUT = 2;
  public static final int LOST_MEMBER = 3;

  private ExitCodes() {}
}
