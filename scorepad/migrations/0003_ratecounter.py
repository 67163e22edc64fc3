from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("scorepad", "0002_rendered_sheet"),
    ]

    operations = [
        migrations.CreateModel(
            name="RateCounter",
            fields=[
                (
                    "client",
                    models.CharField(max_length=200, primary_key=True, serialize=False),
                ),
                ("period", models.BigIntegerField()),
                ("hits", models.PositiveIntegerField()),
            ],
        ),
    ]
