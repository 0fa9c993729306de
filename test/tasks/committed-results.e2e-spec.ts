import { DataSource } from 'typeorm';
import { TypeOrmCommittedResults } from '../../libs/typeorm/src/committed-results';
import { DATABASES, skipUnlessEnabled } from '../support/databases';
import { dropSchema, newSchema } from '../support/pg-schema';

const URL = process.env.DATABASE_URL as string;

describe.each(DATABASES.filter((db) => db.database === 'postgres'))(
  'committed results on $name',
  (db) => {
    if (!skipUnlessEnabled(db)) {
      return;
    }

    it('is made once by instances that look it up at the same moment', async () => {
      for (let round = 0; round < 5; round++) {
        const schema = await newSchema(URL);
        const sources = Array.from(
          { length: 4 },
          () =>
            new DataSource({
              type: 'postgres',
              url: URL,
              extra: { options: `-c search_path=${schema}` },
            }),
        );
        try {
          await Promise.all(sources.map((source) => source.initialize()));
          const found = await Promise.all(
            sources.map((source) =>
              new TypeOrmCommittedResults(source).find('task-1'),
            ),
          );
          expect(found).toEqual([undefined, undefined, undefined, undefined]);
        } finally {
          await Promise.all(sources.map((source) => source.destroy()));
          await dropSchema(URL, schema);
        }
      }
    });
  },
);
