"""Bad-input sentences echo the user's value as the user wrote it: 'a' and -1, never numpy 2's
np.str_('a') or np.int64(-1) (found by the JS twin's comparison of error sentences)."""

import numpy as np
import pytest

import kappalib as kl


@pytest.mark.parametrize(
    ("call", "shown"),
    [
        (
            lambda: kl.krippendorff_alpha(
                [["a", "b"], ["a", "a"]], level_of_measurement="interval", layout="raters x units"
            ),
            "'a'",
        ),
        (
            lambda: kl.krippendorff_alpha(
                [[1, -1, 2], [1, 2, 2]], level_of_measurement="ratio", layout="raters x units"
            ),
            "got -1",
        ),
        (
            lambda: kl.krippendorff_alpha(
                np.array([[1, 2, 5], [1, 2, 2]]),
                labels=[1, 2, 3],
                level_of_measurement="ordinal",
                layout="raters x units",
            ),
            "the rating 5,",
        ),
    ],
)
def test_values_in_sentences_are_plain_python(call, shown):
    with pytest.raises((ValueError, TypeError)) as exc:
        call()
    message = str(exc.value)
    assert "np." not in message, message
    assert shown in message, message
