# Issue 34's R references (sourced by oracles.R): R's survey package for the delta method of
# kappas of the same units and for the cluster-robust variance of kappa, and irr's test of
# Light's kappa.  Debian's r-cran-survey.
#
# survey linearizes a smooth function of means (svycontrast on svymean): with ids = ~cluster
# its variance is the ratio-estimator (with-replacement) variance over the clusters,
# G/(G-1) sum_g (...)^2, the one of Obuchowski (1998) and Yang & Zhou (2014); with ids = ~1
# the units are the clusters, so it is n/(n-1) times the delta method's variance with
# divisor n (Fleiss, Cohen & Everitt 1969): the table records survey's number and its
# verdict says so.

suppressPackageStartupMessages(library(survey))
versions <- c(versions, survey = as.character(packageVersion("survey")))

NAMED_WEIGHTS <- c("ordinal", "radical", "ratio", "circular", "bipolar")

survey_weights <- function(spec, K) {
  # agreement weights 1 - d / max d on the positions 1..K (Gwet 2014, ch. 3)
  if (is.null(spec)) spec <- "identity"
  s <- 1:K
  d <- switch(spec,
    identity = 1 - diag(K),
    linear = abs(outer(s, s, "-")),
    quadratic = outer(s, s, "-")^2,
    ordinal = { n <- abs(outer(s, s, "-")); n * (n + 1) / 2 },
    ratio = (outer(s, s, "-") / outer(s, s, "+"))^2,
    bipolar = {
      t <- outer(s, s, "+")
      x <- outer(s, s, "-")^2 / ((t - 2 * min(s)) * (2 * max(s) - t))
      diag(x) <- 0
      x
    })
  1 - d / max(d)
}

positions_of <- function(inp) {
  R <- ratings_of(inp)
  cats <- as.numeric(unlist(inp$categories))
  matrix(match(R, cats), nrow(R))
}

# The indicator columns of one pair of raters (g, h) and the kappa expression over their means.
pair_columns <- function(P, g, h, K, w, tag) {
  cols <- list()
  a <- P[, g]; b <- P[, h]
  cols[[paste0("o", tag)]] <- w[cbind(a, b)]
  for (k in 1:K) {
    cols[[paste0("r", tag, "_", k)]] <- as.numeric(a == k)
    cols[[paste0("c", tag, "_", k)]] <- as.numeric(b == k)
  }
  pe <- paste(sapply(1:K, function(j) sapply(1:K, function(k)
    sprintf("%.17g*r%s_%d*c%s_%d", w[j, k], tag, j, tag, k))), collapse = " + ")
  list(cols = cols, expr = sprintf("((o%s - (%s)) / (1 - (%s)))", tag, pe, pe))
}

survey_contrast <- function(cols, exprs, ids = NULL) {
  df <- as.data.frame(cols)
  if (!is.null(ids)) df$cluster <- ids
  design <- quiet(if (is.null(ids)) svydesign(ids = ~1, data = df) else
    svydesign(ids = ~cluster, data = df))
  means <- svymean(as.formula(paste("~", paste(names(cols), collapse = " + "))), design)
  lapply(exprs, function(e) {
    r <- svycontrast(means, parse(text = e)[[1]])
    c(coef(r)[[1]], SE(r)[[1]])
  })
}

complete_rows <- function(P) P[stats::complete.cases(P), , drop = FALSE]

kappa_difference <- function(case) {
  call <- paste("svycontrast(svymean(indicators, svydesign(ids = ~1)), kappa_2 - kappa_1)",
                "(the delta method; with-replacement divisor n - 1)")
  P <- positions_of(case$input)
  if (any(is.na(P))) return(list())  # survey's domains are not this test's subject
  K <- length(case$input$categories)
  w <- survey_weights(case$options$weights, K)
  pr <- lapply(case$options$pairs, function(p) as.numeric(unlist(p)) + 1)
  list(try_ref("survey", call, {
    a <- pair_columns(P, pr[[1]][1], pr[[1]][2], K, w, "1")
    b <- pair_columns(P, pr[[2]][1], pr[[2]][2], K, w, "2")
    res <- survey_contrast(c(a$cols, b$cols),
                           list(paste(b$expr, "-", a$expr), a$expr, b$expr))
    ref("survey", call, list(value = res[[1]][1], se = res[[1]][2], kappa_1 = res[[2]][1],
                             se_1 = res[[2]][2], kappa_2 = res[[3]][1], se_2 = res[[3]][2]))
  }))
}

clustered_kappa <- function(case) {
  call <- "svycontrast(svymean(indicators, svydesign(ids = ~cluster)), kappa)"
  P <- positions_of(case$input)
  K <- length(case$input$categories)
  w <- survey_weights(case$options$weights, K)
  ids <- as.character(unlist(case$input$clusters))
  list(try_ref("survey", call, {
    a <- pair_columns(P, 1, 2, K, w, "1")
    res <- survey_contrast(a$cols, list(a$expr), ids)
    ref("survey", call, list(value = res[[1]][1], se = res[[1]][2]))
  }))
}

light_kappa_extra <- function(case) {
  # irr's z and p of kappam.light, and survey's delta method for the mean of the pairs
  R <- ratings_of(case$input)
  out <- list()
  call <- "kappam.light(ratings): value, statistic (z), p.value"
  out[[1]] <- try_ref("irr", call, {
    r <- quiet(kappam.light(R))
    ref("irr", call, list(value = r$value, z_null = r$statistic, pvalue = r$p.value))
  })
  P <- positions_of(case$input)
  if (!any(is.na(P))) {
    K <- length(case$input$categories)
    w <- diag(K)
    m <- ncol(P)
    call <- paste("svycontrast(svymean(indicators, svydesign(ids = ~1)), mean of the pairs'",
                  "kappas) (with-replacement divisor n - 1)")
    out[[2]] <- try_ref("survey", call, {
      cols <- list(); parts <- c(); tag <- 0
      for (g in 1:(m - 1)) for (h in (g + 1):m) {
        tag <- tag + 1
        pc <- pair_columns(P, g, h, K, w, as.character(tag))
        cols <- c(cols, pc$cols); parts <- c(parts, pc$expr)
      }
      res <- survey_contrast(cols, list(sprintf("(%s) / %d", paste(parts, collapse = " + "),
                                                length(parts))))
      ref("survey", call, list(value = res[[1]][1], se = res[[1]][2]))
    })
  }
  out
}

survey_handlers <- function(handlers) {
  handlers$kappa_difference <- kappa_difference
  handlers$clustered_kappa <- clustered_kappa
  handlers$light_kappa <- light_kappa_extra
  handlers
}

named_weights_case <- function(case) {
  w <- case$options$weights
  !is.null(w) && is.character(w) && w %in% NAMED_WEIGHTS
}
