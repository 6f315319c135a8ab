package dev.firedrill.promql.fn;

/**
 * The calendar fields of {@code time.Unix(int64(v), 0).UTC()} computed as Go 1.19 computes them, so
 * that every input, NaN and values beyond any real date included, gives what Prometheus gives. Go
 * counts in unsigned seconds since 1 January of year -292277022399 and lets the conversion wrap.
 */
final class GoTime {

  private static final long SECONDS_PER_DAY = 86_400;
  private static final long ABSOLUTE_ZERO_YEAR = -292_277_022_399L;
  private static final long UNIX_TO_ABSOLUTE =
      62_135_596_800L - (ABSOLUTE_ZERO_YEAR - 1) * 31_556_952L;
  private static final long DAYS_PER_400_YEARS = 365 * 400 + 97;
  private static final long DAYS_PER_100_YEARS = 365 * 100 + 24;
  private static final long DAYS_PER_4_YEARS = 365 * 4 + 1;
  private static final int[] DAYS_BEFORE = {
    0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365
  };

  /** Unsigned seconds since the absolute zero. */
  private final long abs;

  private final long year;
  private final int yearDay;

  private GoTime(long abs) {
    this.abs = abs;
    long d = Long.divideUnsigned(abs, SECONDS_PER_DAY);
    long n = Long.divideUnsigned(d, DAYS_PER_400_YEARS);
    long y = 400 * n;
    d -= DAYS_PER_400_YEARS * n;
    n = d / DAYS_PER_100_YEARS;
    n -= n >> 2;
    y += 100 * n;
    d -= DAYS_PER_100_YEARS * n;
    n = d / DAYS_PER_4_YEARS;
    y += 4 * n;
    d -= DAYS_PER_4_YEARS * n;
    n = d / 365;
    n -= n >> 2;
    y += n;
    d -= 365 * n;
    this.year = y + ABSOLUTE_ZERO_YEAR;
    this.yearDay = (int) d;
  }

  /**
   * Go's {@code int64(v)} on amd64 truncates, and gives the lowest int64 for NaN and for what is
   * out of range, where Java's cast would saturate.
   */
  static GoTime ofUnixSeconds(double v) {
    long seconds = Double.isNaN(v) || v >= 0x1p63 || v < -0x1p63 ? Long.MIN_VALUE : (long) v;
    return new GoTime(seconds + UNIX_TO_ABSOLUTE);
  }

  double year() {
    return year;
  }

  double dayOfYear() {
    return yearDay + 1;
  }

  double hour() {
    return Long.remainderUnsigned(abs, SECONDS_PER_DAY) / 3600;
  }

  double minute() {
    return Long.remainderUnsigned(abs, 3600) / 60;
  }

  /** 0 is Sunday; the absolute zero was a Monday. */
  double dayOfWeek() {
    return Long.remainderUnsigned(abs + SECONDS_PER_DAY, 7 * SECONDS_PER_DAY) / SECONDS_PER_DAY;
  }

  double month() {
    return monthAndDay()[0];
  }

  double dayOfMonth() {
    return monthAndDay()[1];
  }

  /**
   * As Prometheus asks Go: how far day 32 of the month overflows into the next. Near the end of
   * Go's range that date wraps around, and so does the answer.
   */
  double daysInMonth() {
    int month = monthAndDay()[0];
    long y = year - ABSOLUTE_ZERO_YEAR;
    long n = Long.divideUnsigned(y, 400);
    y -= 400 * n;
    long days = DAYS_PER_400_YEARS * n;
    n = y / 100;
    y -= 100 * n;
    days += DAYS_PER_100_YEARS * n;
    n = y / 4;
    y -= 4 * n;
    days += DAYS_PER_4_YEARS * n + 365 * y;
    days += DAYS_BEFORE[month - 1];
    if (isLeap() && month >= 3) {
      days++;
    }
    days += 31;
    return 32 - new GoTime(days * SECONDS_PER_DAY).dayOfMonth();
  }

  private boolean isLeap() {
    return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
  }

  private int[] monthAndDay() {
    int day = yearDay;
    if (isLeap()) {
      if (day == 31 + 29 - 1) {
        return new int[] {2, 29};
      }
      if (day > 31 + 29 - 1) {
        day--;
      }
    }
    int month = day / 31;
    int end = DAYS_BEFORE[month + 1];
    int begin;
    if (day >= end) {
      month++;
      begin = end;
    } else {
      begin = DAYS_BEFORE[month];
    }
    return new int[] {month + 1, day - begin + 1};
  }
}
