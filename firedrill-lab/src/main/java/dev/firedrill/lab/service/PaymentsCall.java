package dev.firedrill.lab.service;

/** How checkout's calls to payments ended: the last attempt decides. */
enum PaymentsCall {
  /** 2xx. */
  OK,
  /** No answer within checkout's timeout. */
  TIMEOUT,
  /** 5xx. */
  SERVER_ERROR,
  /** Connection refused or reset. */
  UNREACHABLE,
  /** Any other status: not retried. */
  REJECTED;

  boolean retryable() {
    return this == TIMEOUT || this == SERVER_ERROR || this == UNREACHABLE;
  }
}
